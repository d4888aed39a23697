1: ?1
test 1: count(enemy) >
