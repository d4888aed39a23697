# `left-ahead` is written `ahead-left`: the suggestion swaps the halves.
1: ?1
2: T
3: RAZ
test 1: enemy left-ahead 2
