1: ?1
test 1: true
test 1: false
