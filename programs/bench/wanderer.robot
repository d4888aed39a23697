# Lake-aware wanderer: strolls two hexes at a time across open ground,
# slowing to one hex near water and turning away from lakes, lightning, the
# board's edge and obstacles. Fires at any enemy within 2 hexes ahead.
name: wanderer

1: ?1          # an enemy within range ahead?
2: GO 9        #   yes: fire
3: ?2          # the next two hexes safe?
4: GO 11       #   yes: stride
5: ?3          # only the next hex safe?
6: GO 13       #   yes: step
7: R-1         # blocked: turn away
8: RAZ
9: T
10: RAZ
11: D+2
12: RAZ
13: D+1
14: RAZ

test 1: enemy ahead within 2 and shots > 0
test 2: not (lake ahead within 2 or edge ahead within 2 or shape ahead within 2 or robot ahead within 2 or lightning ahead within 2 or computer ahead within 2)
test 3: not (lake ahead 1 or edge ahead 1 or shape ahead 1 or robot ahead 1 or lightning ahead 1 or computer ahead 1)
