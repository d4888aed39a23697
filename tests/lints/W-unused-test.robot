# W-unused-test: test 2 is defined, but no step asks it (`?2`).
1: ?1
2: T
3: R+1
4: RAZ

test 1: enemy ahead within 2
test 2: lake ahead 1
