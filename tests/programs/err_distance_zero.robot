1: ?1
test 1: enemy within 0
