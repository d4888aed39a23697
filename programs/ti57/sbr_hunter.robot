# Subroutine hunter: a hunter built from two subroutines. SBR 1 shoots if
# the shot is worth it, or self-destructs out of shots with an enemy next to
# it and no friend; SBR 2 steps forward if the way is safe, else turns left.
# The main loop calls SBR 1 at its top and again after every turn, so a
# robot that has just faced an enemy shoots before it moves; it calls SBR 2
# to close in and to walk on when it sees nobody. (RULES A.12: needs the
# TI-57 rule.)
name: sbr_hunter

1: LBL 0       # the main loop
2: SBR 1       # shoot first
3: ?2          # an enemy along a line on my right, none ahead?
4: GTO 3       #   yes: face it
5: ?3          # an enemy on my left or behind, none ahead?
6: GTO 4       #   yes: face it
7: SBR 2       # close in on the enemy ahead, or walk on to a new line
8: GTO 0
9: LBL 3       # turn right, then shoot or step on
10: R+1
11: SBR 1
12: GTO 0
13: LBL 4      # turn left, then shoot or step on
14: R-1
15: SBR 1
16: SBR 2
17: GTO 0
18: LBL 1      # subroutine 1: shoot, or explode when out of shots
19: ?1         # a shot worth firing?
20: T          #   yes (next turn reads on from step 21)
21: x = shots
22: INV x=t    # shots left? (t stays 0 in this program)
23: INV SBR    #   yes: nothing more to do here
24: x = count(enemy within 1)
25: x=t        # no enemy next to me?
26: INV SBR    #   none: back
27: x = count(friend within 1)
28: x=t        # no friend next to me?
29: *          #   none: take the enemy with me
30: INV SBR
31: LBL 2      # subroutine 2: one safe step forward, or turn left
32: ?4         # the way ahead safe?
33: GTO 5
34: R-1        # blocked: turn left
35: INV SBR
36: LBL 5
37: D+1
38: INV SBR

test 1: shots > 0 and (enemy ahead 1 or (enemy ahead 2 and (robot ahead 1 or lake ahead 1 or shape ahead 1 or lightning ahead 1)))
test 2: not enemy ahead and (enemy right or enemy behind-right)
test 3: not enemy ahead and (enemy left or enemy behind-left or enemy behind)
test 4: not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
