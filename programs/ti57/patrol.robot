# Patrol: walks a beat of triangles, three hexes a side, counting the hexes
# of each side down in R0 with DSZ; at the end of a side it turns a third of
# a turn and starts the next. It leaves the beat to fight: it turns towards
# an enemy seen along any of its lines and fires from point-blank range
# (from 2 hexes when it cannot get closer). Walking towards an enemy ahead
# does not count against the side. Never walks into a lake, off the board
# or onto lightning. (RULES A.12: run it with the TI-57 rule.)
name: patrol

1: 3           # a side is 3 hexes:
2: STO 0       #   R0 counts the hexes left on this side
3: LBL 0       # the beat
4: ?1          # a shot worth firing?
5: T           #   yes (next turn reads on from step 6)
6: ?2          # an enemy along a line on my right, none ahead?
7: GTO 2       #   yes: turn right
8: ?3          # an enemy along a line on my left or behind, none ahead?
9: GTO 3       #   yes: turn left
10: ?4         # the way ahead safe?
11: GTO 1      #   yes: walk
12: R-1        # blocked: turn left...
13: RST        # ...and start a new side
14: LBL 1      # walk one hex of the side
15: D+1
16: x = count(enemy ahead)
17: INV x=t    # an enemy ahead? (t is always 0 here)
18: GTO 0      #   yes: a chase, not the beat: the side is not counted
19: DSZ        # one hex fewer on this side; skips the next step at 0
20: GTO 0      #   hexes left: on with the beat
21: R+2        # the side is done: a third of a turn...
22: RST        # ...and a new side of 3
23: LBL 2
24: R+1
25: GTO 0
26: LBL 3
27: R-1
28: GTO 0

test 1: shots > 0 and (enemy ahead 1 or (enemy ahead 2 and (robot ahead 1 or lake ahead 1 or shape ahead 1 or lightning ahead 1)))
test 2: not enemy ahead and (enemy right or enemy behind-right)
test 3: not enemy ahead and (enemy left or enemy behind-left or enemy behind)
test 4: not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
