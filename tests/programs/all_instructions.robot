# Every instruction, in the canonical notation and in word forms.
name: every instruction
1: D+1
2: D + 2
3: d-1
4: D-2
5: R+1
6: R+2
7: r-1
8: R - 2
9: T
10: *
11: ?1
12: RAZ
13: GO 1
14: go to 2
15: goto 3
test 1: true
