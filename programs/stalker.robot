# Stalker: a hunter built to keep walking when hit. It turns towards enemies
# it sees along any of its six lines, however far, keeps going while one is
# ahead, and fires from point-blank range (from 2 hexes when the way is
# blocked). Its move is written twice (steps 9 and 11), each after a check
# that advancing is right: a move lost to a shot from 2 hexes (R-A8) costs
# one turn, not the match. Blocked, it turns left and sidesteps.
name: stalker

1: ?1          # a shot worth firing?
2: T           #   yes (next turn reads on from step 3)
3: ?2          # an enemy along a line on my right, none ahead?
4: GO 13       #   yes: turn right
5: ?3          # an enemy ahead or none on my left, and the way safe?
6: GO 9        #   yes: advance
7: R-1         # otherwise turn left...
8: ?3          # ...and, next turn, step on if that is now right
9: D+1
10: ?3         # still right to advance? (also the way on if step 9 is lost)
11: D+1
12: RAZ
13: R+1
14: RAZ

test 1: shots > 0 and (enemy ahead 1 or (enemy ahead 2 and (robot ahead 1 or lake ahead 1 or shape ahead 1 or lightning ahead 1)))
test 2: not enemy ahead and (enemy right or enemy behind-right)
test 3: (enemy ahead or not (enemy left or enemy behind-left or enemy behind)) and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
