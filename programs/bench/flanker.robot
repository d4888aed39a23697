# Flanker: runs along its facing line, turning away from edges and
# obstacles. It watches the lines ahead-left and ahead-right: when an enemy
# appears there within 3 hexes it turns to face it, and it fires at any
# enemy within 2 hexes ahead.
name: flanker

1: ?1          # an enemy within range ahead?
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

test 1: enemy ahead within 2 and shots > 0
test 2: enemy ahead-right within 3 and not enemy ahead
test 3: not enemy ahead-left within 3 and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or robot ahead 1 or lightning ahead 1 or computer ahead 1)
