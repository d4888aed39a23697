# Word aliases: forward/back, right/left, fire/shoot, explode, test n, reset, go.
1. forward 2
2) back 1
3 right 2
4: left 1
5: fire
6: shoot
7: explode
8: self-destruct
9: test 2
10: reset
11: Go 4
test 2: not true
