# Turret: patrols east and west only (it checks its facing against the
# absolute directions 1 and 4), turns towards an enemy within 2 hexes on
# either side, and fires at any enemy within 2 hexes ahead.
name: turret

1: ?1          # an enemy within range ahead?
2: GO 9        #   yes: fire
3: ?2          # an enemy within 2 on my right side?
4: GO 11       #   yes: turn to it
5: ?3          # on patrol (facing 1 or 4) and safe to advance?
6: GO 13
7: R-1         # turn: towards the left side, or back onto the patrol line
8: RAZ
9: T
10: RAZ
11: R+1
12: RAZ
13: D+1
14: RAZ

test 1: enemy ahead within 2 and shots > 0
test 2: enemy right within 2 or enemy behind-right within 2
test 3: (facing 1 or facing 4) and not enemy ahead within 2 and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or robot ahead 1 or lightning ahead 1 or computer ahead 1)
