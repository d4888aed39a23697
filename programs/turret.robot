# Turret: patrols east and west (it checks its facing against the absolute
# directions 1 and 4) and turns towards an enemy within 2 hexes on either
# side. It fires at an enemy next to it, and at one 2 hexes ahead only when
# it cannot step closer. Turning round at the end of its patrol line, it
# walks on along any line that shows an enemy or the enemy camp, so it
# patrols ever closer to them.
name: turret

1: ?1          # a shot worth firing?
2: GO 9        #   yes: fire
3: ?2          # an enemy within 2 on my right side?
4: GO 11       #   yes: turn to it
5: ?3          # on patrol (facing 1 or 4), or towards an enemy or its camp, and safe?
6: GO 13
7: R-1         # turn: towards the left side, or back onto the patrol line
8: RAZ
9: T
10: RAZ
11: R+1
12: RAZ
13: D+1
14: RAZ

test 1: shots > 0 and (enemy ahead 1 or enemy ahead 2 and (robot ahead 1 or lake ahead 1 or shape ahead 1 or lightning ahead 1))
test 2: enemy right within 2 or enemy behind-right within 2
test 3: (facing 1 or facing 4 or enemy ahead or enemy camp ahead) and not enemy ahead 1 and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or robot ahead 1 or lightning ahead 1 or computer ahead 1)
