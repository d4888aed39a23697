# Listener: a sentinel that relies on radio signals. On its own it sweeps,
# fires and advances like a sentinel, each look written once; steps 7 to 9
# are never reached by the program and exist to be named by signals: 7
# charges two hexes, 8 steps forward, 9 self-destructs. The default match
# signals step 9 when two enemies close in, and step 7 when no enemy is near.
name: listener

1: ?1          # a shot worth firing, and no friend in the way?
2: GO 10       #   yes: fire
3: ?2          # an enemy along this line, or none within 2 and open ground ahead?
4: GO 12       #   yes: advance a hex
5: R+1         # no: keep sweeping
6: RAZ
7: D+2         # signal only: charge
8: D+1         # signal only: step forward
9: *           # signal only: self-destruct
10: T
11: RAZ
12: D+1
13: R+1        # and sweep on
14: RAZ

test 1: (enemy ahead 1 or enemy ahead 2 and (robot ahead 1 or lake ahead 1 or shape ahead 1 or lightning ahead 1)) and not friend ahead 1
test 2: (enemy ahead or not (edge ahead within 3 or enemy within 2)) and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
