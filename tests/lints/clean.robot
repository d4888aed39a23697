# No warning: every step is read, the program loops, and every test is asked.
name: clean
1: ?1
2: T
3: ?2
4: D+1
5: R+1
6: RAZ

test 1: enemy ahead within 2
test 2: not (lake ahead 1 or edge ahead 1 or robot ahead 1)
