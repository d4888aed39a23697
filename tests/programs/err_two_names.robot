name: a
name: b
1: T
