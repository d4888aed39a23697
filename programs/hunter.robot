# Hunter: turns towards any enemy it sees along one of its six lines, closes
# in, and fires from point-blank range, where a shot destroys. It fires from
# 2 hexes only when it cannot get closer. With no enemy in any line it
# advances to change lines; when the way is blocked it turns left and
# sidesteps. Never walks into a lake, off the board or onto lightning.
name: hunter

1: ?1          # a shot worth firing now?
2: GO 11       #   yes: fire
3: ?2          # an enemy along a line on my right?
4: GO 13       #   yes: turn right
5: ?3          # no enemy on my left or behind, and the way ahead safe?
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
test 2: not enemy ahead and (enemy right within 6 or enemy behind-right within 6)
test 3: not (enemy left within 6 or enemy behind-left within 6 or enemy behind within 6 and not enemy ahead) and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
test 4: not enemy ahead within 2 and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
