# Flanker: runs along its facing line, turning away from edges and
# obstacles. It watches the lines ahead-left and ahead-right, however far:
# when an enemy appears there and none is ahead it turns to face it. It
# fires at an enemy next to it, and at one 2 hexes ahead only when it
# cannot step closer.
name: flanker

1: ?1          # a shot worth firing?
2: GO 9        #   yes: fire
3: ?2          # an enemy ahead-right?
4: GO 11       #   yes: face it
5: ?3          # the way ahead safe and no enemy ahead-left?
6: GO 13       #   yes: run
7: R-1         # turn left: towards the enemy, or away from the obstacle
8: RAZ
9: T
10: RAZ
11: R+1
12: RAZ
13: D+1
14: RAZ

test 1: shots > 0 and (enemy ahead 1 or enemy ahead 2 and (robot ahead 1 or lake ahead 1 or shape ahead 1 or lightning ahead 1))
test 2: enemy ahead-right and not enemy ahead
test 3: (enemy ahead or not enemy ahead-left) and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or robot ahead 1 or lightning ahead 1 or computer ahead 1)
