# W-stall: steps 2 and 3 read one another with no action between. Whenever
# test 1 says yes at step 2, the robot reads 2, 3, 2, 3, … and stalls every
# turn (R-A11).
1: R+1
2: ?1
3: GO 2
4: RAZ

test 1: lake ahead 1
