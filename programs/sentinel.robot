# Sentinel: sweeps the six directions, one sixth of a turn at a time, and
# fires at an enemy next to it in its line of fire (at one 2 hexes off only
# when it cannot step closer), never at a friend. It advances a hex along a
# line that shows an enemy or, with no enemy within 2, along one that leads
# away from the board's edge, and sweeps on. Every look is written twice
# (steps 1-5 and 6-10), so a step lost to a shot (R-A8) slows the sweep
# instead of ending it.
name: sentinel

1: ?1          # a shot worth firing, and no friend in the way?
2: GO 12       #   yes: fire
3: ?2          # an enemy along this line, or none within 2 and open ground ahead?
4: GO 14       #   yes: advance a hex
5: R+1         # no: keep sweeping
6: ?1          # the same look again (also the way on if step 5 is lost)
7: GO 12
8: ?2
9: GO 14
10: R+1
11: RAZ
12: T
13: RAZ
14: D+1
15: RAZ

test 1: (enemy ahead 1 or enemy ahead 2 and (robot ahead 1 or lake ahead 1 or shape ahead 1 or lightning ahead 1)) and not friend ahead 1
test 2: (enemy ahead or not (edge ahead within 3 or enemy within 2)) and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
