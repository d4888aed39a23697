1: ?1
2: ?3
3: T
test 1: true
