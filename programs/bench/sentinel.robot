# Sentinel: holds its ground and sweeps the six directions, one sixth of a
# turn at a time, firing only when an enemy stands within 2 hexes in its line
# of fire, so no shot is wasted. Never fires at a friend.
name: sentinel

1: ?1          # an enemy within range, and no friend in the way?
2: GO 5        #   yes: fire
3: R+1         # no: keep sweeping
4: RAZ
5: T
6: RAZ

test 1: enemy ahead within 2 and not friend ahead 1
