# `ROT+1` is not an instruction: the error says so, not "expected + or -".
1: T
2: ROT+1
3: RAZ
