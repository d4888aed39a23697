# Lake-aware wanderer: strolls two hexes at a time across open ground,
# slowing to one hex near water and turning away from lakes, lightning, the
# board's edge and obstacles. Turns left towards an enemy it sees along a
# line on its left. Fires at an enemy next to it, and at one 2 hexes ahead
# while it has more than 4 shots.
name: wanderer

1: ?1          # a shot worth firing?
2: GO 9        #   yes: fire
3: ?2          # the next two hexes safe, and no enemy on my left?
4: GO 11       #   yes: stride
5: ?3          # only the next hex safe?
6: GO 13       #   yes: step
7: R-1         # blocked, or an enemy on my left: turn left
8: RAZ
9: T
10: RAZ
11: D+2
12: RAZ
13: D+1
14: RAZ

test 1: enemy ahead 1 and shots > 0 or enemy ahead 2 and shots > 4
test 2: (enemy ahead or not (enemy left or enemy behind-left)) and not (lake ahead within 2 or edge ahead within 2 or shape ahead within 2 or robot ahead within 2 or lightning ahead within 2 or computer ahead within 2)
test 3: (enemy ahead or not (enemy left or enemy behind-left)) and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or robot ahead 1 or lightning ahead 1 or computer ahead 1)
