# Seeker: turns towards enemies it sees along any of its six lines, however
# far, keeps going while one is ahead and fires from point-blank range,
# where a shot destroys; from 2 hexes only when the way is blocked. With no
# enemy in any line it walks on to change lines. Blocked, it turns left and
# sidesteps. Never walks into a lake, off the board or onto lightning.
name: seeker

1: ?1          # a shot worth firing now?
2: GO 11       #   yes: fire
3: ?2          # an enemy along a line on my right, none ahead?
4: GO 13       #   yes: turn right
5: ?3          # an enemy ahead or none on my left, and the way safe?
6: GO 9        #   yes: advance
7: R-1         # otherwise turn left...
8: ?4          # ...and, next turn, sidestep if that is safe
9: D+1
10: RAZ
11: T
12: RAZ
13: R+1
14: RAZ

test 1: shots > 0 and (enemy ahead 1 or (enemy ahead 2 and (robot ahead 1 or lake ahead 1 or shape ahead 1 or lightning ahead 1)))
test 2: not enemy ahead and (enemy right or enemy behind-right)
test 3: (enemy ahead or not (enemy left or enemy behind-left or enemy behind)) and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
test 4: not enemy ahead within 2 and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
