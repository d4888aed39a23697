1: ?1
test 1: enemy camp robot
