# evolved-1-1: bred by `robots evolve --seed 1` (population 64, 80 of 80 generations,
# 12 seed indices a generation and colour; board classic, scenario 1, 3 robots a side,
# at most 200 rounds), against the benchmark and a hall of fame of earlier champions.
# The final check, 32 matches against each program on fresh seeds (wins,
# draws, losses):
#   hunter 17-7-8, sentinel 13-16-3, kamikaze 25-7-0, camp_runner 17-5-10
#   sniper 29-3-0, wanderer 16-4-12, listener 20-12-0, flanker 12-15-5
#   turret 17-3-12, seeker 18-6-8, stalker 16-6-10, berserker 16-3-13
#   charger 8-17-7, gunner 14-13-5, bomber 23-9-0, lemming 32-0-0
# More wins than losses against 16 of 16; mean share (wins and half the
# draws) 69.5 %; lint warnings: 0.

name: evolved-1-1

1: ?1         # test 1? yes: step 2, no: step 3
2: *          # self-destruct
3: ?2         # test 2? yes: step 4, no: step 5
4: T          # fire
5: ?3         # test 3? yes: step 6, no: step 7
6: GO 13      # go to step 13
7: ?4         # test 4? yes: step 8, no: step 9
8: GO 11      # go to step 11
9: R-1        # turn 1 left
10: ?4        # test 4? yes: step 11, no: step 12
11: D+1       # move 1 forward
12: RAZ       # back to step 1
13: R+1       # turn 1 right
14: RAZ       # back to step 1

test 1: enemy at 1 and not friend at 1 and (shots = 0 or count(enemy at 1) >= 2) and count(enemy within 2) >= 1
test 2: shots > 0 and (enemy ahead 1 or in enemy camp and computer ahead-right 1 and (robot ahead 1 or lake ahead 1 or shape ahead 1 or lightning ahead 1))
test 3: not enemy ahead and (enemy ahead-right or enemy behind-right) or lightning ahead-right 2
test 4: (enemy ahead or not (count(enemy within 2) >= 1 or enemy behind-left or enemy behind)) and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
