# Gunner: turns towards enemies it sees along any of its six lines and
# fires as soon as one is within 2 hexes ahead, so most of its shots only
# knock a step out of the target's program (R-A8) and it often runs dry
# before the kill. Walks on to change lines; blocked, it turns right.
name: gunner

1: ?1          # an enemy within range ahead?
2: GO 7        #   yes: fire
3: ?2          # an enemy along another line, or the way unsafe?
4: GO 9        #   yes: turn right
5: D+1         # walk on (towards the enemy ahead, or to change lines)
6: RAZ
7: T
8: RAZ
9: R+1
10: RAZ

test 1: enemy ahead within 2 and shots > 0
test 2: (not enemy ahead and (enemy right or enemy behind-right or enemy behind or enemy left or enemy behind-left)) or lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1
