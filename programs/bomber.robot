# Bomber: never fires. It turns towards enemies it sees along any of its
# six lines, walks up to them and self-destructs as soon as one is next to
# it, friends or not (the blast destroys every robot next to it, R-A7).
# Blocked, it turns left and sidesteps.
name: bomber

1: ?1          # an enemy next to me?
2: *           #   yes: boom
3: ?2          # an enemy along a line on my right, none ahead?
4: GO 11       #   yes: turn right
5: ?3          # an enemy ahead or none on my left, and the way safe?
6: GO 9        #   yes: advance
7: R-1         # otherwise turn left...
8: ?3          # ...and, next turn, step on if that is now right
9: D+1
10: RAZ
11: R+1
12: RAZ

test 1: enemy within 1
test 2: not enemy ahead and (enemy right or enemy behind-right)
test 3: (enemy ahead or not (enemy left or enemy behind-left or enemy behind)) and not (lake ahead 1 or edge ahead 1 or shape ahead 1 or lightning ahead 1 or robot ahead 1 or computer ahead 1)
