# Berserker: a hunter that never runs dry. It turns towards enemies it sees
# along any of its six lines, however far, keeps going while one is ahead,
# and fires from point-blank range (or from 2 hexes when the way is
# blocked). Out of shots, or with two enemies next to it, it self-destructs
# beside them if no friend is next to it. Blocked, it turns left and
# sidesteps.
name: berserker

1: ?1          # explode now?
2: *           #   yes
3: ?2          # a shot worth firing?
4: T           #   yes (next turn reads on from step 5)
5: ?3          # an enemy along a line on my right, none ahead?
6: GO 13       #   yes: turn right
7: ?4          # an enemy ahead or none on my left, and the way safe?
8: GO 11       #   yes: advance
9: R-1         # otherwise turn left...
10: ?4         # ...and, next turn, step on if that is now right
11: D+1
12: RAZ
13: R+1
14: RAZ

test 1: enemy within 1 and not friend within 1 and (shots = 0 or count(enemy within 1) >= 2)
test 2: shots > 0 and (enemy ahead 1 or (enemy ahead 2 and (robot ahead 1 or lake ahead 1 or shape ahead 1 or lightning ahead 1)))
test 3: not enemy ahead and (enemy right or enemy behind-right)
test 4: (enemy ahead or not (enemy left or enemy behind-left or enemy behind)) and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
