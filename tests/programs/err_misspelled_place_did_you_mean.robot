# A misspelled place gets a suggestion from the words valid there.
1: ?1
2: T
3: RAZ
test 1: enemy ahaed 2
