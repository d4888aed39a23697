1: ?1
test 1: violet square ahead 1
