# Computer sniper (scenario 3): steers towards the enemy computer by the
# lines it can see it along (turning right or left), walks straight when it
# sees none, and once inside the enemy camp with the computer within 2 hexes
# straight ahead, fires at it (R-A17). Sidesteps when the way is blocked.
name: sniper

1: ?1          # in the enemy camp, its computer within range ahead?
2: GO 11       #   yes: fire
3: ?2          # the computer along a line on my right?
4: GO 13       #   yes: turn right
5: ?3          # no computer on my left or behind, and the way ahead safe?
6: GO 9        #   yes: walk on
7: R-1         # otherwise turn left...
8: ?4          # ...and, next turn, sidestep if that is safe
9: D+1
10: RAZ
11: T
12: RAZ
13: R+1
14: RAZ

test 1: in enemy camp and enemy computer ahead within 2
test 2: not enemy computer ahead and (enemy computer right or enemy computer behind-right)
test 3: not (enemy computer left or enemy computer behind-left or enemy computer behind and not enemy computer ahead) and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or robot ahead 1 or computer ahead 1 or lightning ahead 1)
test 4: not (lake ahead 1 or edge ahead 1 or shape ahead 1 or robot ahead 1 or computer ahead 1 or lightning ahead 1)
