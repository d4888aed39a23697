1: ?1
test 1: lake ahead 99
