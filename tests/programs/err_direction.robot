1: ?1
test 1: facing 7
