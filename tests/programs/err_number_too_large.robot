1: ?1
test 1: shots > 99999999999
