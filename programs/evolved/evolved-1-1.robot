# evolved-1-1: bred by `robots evolve --seed 1` (population 64, 60 of 60 generations,
# 4 seed indices a generation and colour; board classic, scenario 1, 3 robots a side,
# at most 200 rounds), against the benchmark and a hall of fame of earlier champions.
# The final check, 32 matches against each program on fresh seeds (wins,
# draws, losses):
#   hunter 22-3-7, sentinel 14-2-16, kamikaze 22-10-0, camp_runner 24-5-3
#   sniper 31-1-0, wanderer 22-6-4, listener 30-1-1, flanker 13-8-11
#   turret 11-11-10, seeker 15-5-12, stalker 18-1-13, berserker 18-1-13
#   charger 19-4-9, gunner 14-9-9, bomber 18-13-1, lemming 32-0-0
# More wins than losses against 15 of 16; mean share (wins and half the
# draws) 70.9 %; lint warnings: 0.

name: evolved-1-1

1: ?1         # test 1? yes: step 2, no: step 3
2: T          # fire
3: ?2         # test 2? yes: step 4, no: step 5
4: GO 13      # go to step 13
5: ?3         # test 3? yes: step 6, no: step 7
6: GO 9       # go to step 9
7: R-1        # turn 1 left
8: ?4         # test 4? yes: step 9, no: step 10
9: D+1        # move 1 forward
10: ?1        # test 1? yes: step 11, no: step 12
11: T         # fire
12: RAZ       # back to step 1
13: R+1       # turn 1 right
14: RAZ       # back to step 1

test 1: shots > 0 and (enemy ahead 1 or enemy ahead 2 and (robot ahead 1 or lake ahead 1 or shape ahead 1 or lightning ahead 1))
test 2: (not enemy ahead or not enemy ahead) and (enemy ahead-right within 5 or enemy behind-right within 6)
test 3: not (enemy ahead-left within 6 or enemy behind-left within 6 or enemy behind within 6 and not (not enemy ahead)) and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
test 4: not enemy ahead within 2 and not enemy ahead-left and not (lake ahead 1 or edge ahead 2 or shape ahead 1 or lightning ahead 1 or robot ahead or robot ahead 1 or computer ahead 1 or enemy behind within 5)
