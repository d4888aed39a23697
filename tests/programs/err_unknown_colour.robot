1: ?1
test 1: purple square within 2
