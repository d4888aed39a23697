# Tracker: remembers where it last saw an enemy. Whenever an enemy stands
# in its facing line it stores the facing in R1 (a direction, 1-6) and sets
# R0, the moves it will go on chasing, to 4. When every enemy is out of its
# lines it turns the short way back to direction R1 and walks on that way,
# DSZ counting R0 down; then it wanders until it sees someone again. Turns
# towards enemies seen along its other lines; fires from point-blank range
# (from 2 hexes when it cannot get closer). (RULES A.12: needs the TI-57
# rule.)
name: tracker

1: LBL 0       # the main loop
2: ?1          # a shot worth firing?
3: T           #   yes (next turn reads on from step 4)
4: RCL 1       # R2 = R1 - facing: where the remembered direction lies
5: STO 2       #   from my facing (0 ahead, 1 or -5 one sixth right, …)
6: x = facing
7: INV SUM 2
8: x = count(enemy ahead)
9: INV x=t     # an enemy ahead? (t is always 0 in this program)
10: GTO 1      #   yes: remember, close in
11: ?2         # an enemy along a line on my right?
12: GTO 2      #   yes: turn right
13: ?3         # an enemy on my left, or a chase whose direction is on my left?
14: GTO 3      #   yes: turn left
15: DSZ        # nobody in sight: still chasing? (R0 - 1; skips at 0)
16: GTO 4      #   yes: on towards R1
17: LBL 6      # advance if the way is safe, else turn left
18: ?4
19: GTO 7
20: R-1
21: GTO 0
22: LBL 7
23: D+1
24: GTO 0
25: LBL 1      # an enemy ahead:
26: x = facing
27: STO 1      #   remember this direction
28: 4
29: STO 0      #   and chase 4 moves once it is out of sight
30: GTO 6
31: LBL 2
32: R+1
33: GTO 0
34: LBL 3
35: R-1
36: GTO 0
37: LBL 4      # the chase: R1 is ahead or on my right (test 3 took the left)
38: RCL 2
39: x=t        # R2 = 0: facing R1?
40: GTO 6      #   yes: advance
41: GTO 2      #   no: turn right

test 1: shots > 0 and (enemy ahead 1 or (enemy ahead 2 and (robot ahead 1 or lake ahead 1 or shape ahead 1 or lightning ahead 1)))
test 2: not enemy ahead and (enemy right or enemy behind-right)
test 3: not enemy ahead and (enemy left or enemy behind-left or enemy behind or R0 > 0 and (R2 = -1 or R2 = -2 or R2 = 4 or R2 = 5))
test 4: not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
