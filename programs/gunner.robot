# Gunner: turns towards enemies it sees along any of its six lines and,
# while it has more than 4 shots, fires as soon as one is within 2 hexes
# ahead, so most of its shots only knock a step out of the target's program
# (R-A8). Its last 4 shots it keeps for point-blank range, where a shot
# destroys. Walks on to change lines (or up to the enemy ahead); blocked,
# it turns right.
name: gunner

1: ?1          # a shot worth firing?
2: GO 7        #   yes: fire
3: ?2          # an enemy along another line, or the way unsafe?
4: GO 9        #   yes: turn right
5: D+1         # walk on (towards the enemy ahead, or to change lines)
6: RAZ
7: T
8: RAZ
9: R+1
10: RAZ

test 1: enemy ahead 1 and shots > 0 or enemy ahead 2 and shots > 4
test 2: (not enemy ahead and (enemy right or enemy behind-right or enemy behind or enemy left or enemy behind-left)) or lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1
