# Computer sniper (scenario 3): walks along a line towards the enemy computer,
# and once inside the enemy camp with the computer within 2 hexes straight
# ahead, fires at it. When no line leads to the computer it alternates
# turning and stepping forward to find one.
name: sniper

1: ?1          # in the enemy camp, its computer within range ahead?
2: GO 11       #   yes: fire
3: ?2          # the enemy computer along my line, the next hex safe?
4: GO 13       #   yes: walk towards it
5: R+1         # look along another line
6: ?2          # the computer in this line now?
7: GO 13
8: ?3          # no: step forward if that is safe
9: GO 13
10: RAZ
11: T
12: RAZ
13: D+1
14: RAZ

test 1: in enemy camp and enemy computer ahead within 2
test 2: enemy computer ahead and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or robot ahead 1 or computer ahead 1 or lightning ahead 1)
test 3: not (lake ahead 1 or edge ahead 1 or shape ahead 1 or robot ahead 1 or computer ahead 1 or lightning ahead 1)
