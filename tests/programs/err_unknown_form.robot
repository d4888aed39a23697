1: ?1
test 1: red hexagon within 2
