# W-past-the-end: when test 1 says no, step 3 skips one step, past the end.
1: R+1
2: T
3: ?1
4: RAZ

test 1: enemy ahead within 2
