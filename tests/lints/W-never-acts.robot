# W-never-acts: from step 1 the robot reads only control steps, so it never
# moves, turns, fires or explodes. Here `GO 1` reads itself: the robot stalls
# every turn (R-A11).
1: GO 1
