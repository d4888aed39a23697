// Comments start with # or //, blank lines are free, keywords ignore case,
// and step numbers may be followed by ':', '.', ')' or nothing.

name:   spacing is trimmed    # a comment after the name

  1   D+1      # indented
2.	R-1       // a tab
3) t

test 1: Enemy AHEAD Within 2   // case does not matter
