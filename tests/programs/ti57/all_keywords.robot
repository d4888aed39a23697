# Every TI-57 keyword of RULES A.12, once (parsed with the rule, 50 steps).
name: every key
1: LBL 0
2: 42
3: -7
4: +3
5: STO 0
6: RCL 1
7: SUM 2
8: INV SUM 3
9: PRD 4
10: INV PRD 5
11: EXC 6
12: x<>t
13: C.t
14: INV C.t
15: x = count(enemy within 3)
16: x = shots
17: x = damage
18: x = facing
19: x = R7
20: x = 5
21: x=t
22: INV x=t
23: x>=t
24: INV x>=t
25: DSZ
26: INV DSZ
27: SBR 1
28: GTO 0
29: PAUSE
30: R/S
31: NOP
32: RST
33: LBL 1
34: INV SBR
35: RTN
36: ?1
37: T
test 1: x >= t and R0 != -1 and facing > 3 and t < R1
