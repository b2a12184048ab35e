# expect: E002 at 2:1
# only a comment, no op
