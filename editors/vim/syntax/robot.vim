" Vim syntax file
" Language:    robot programs of the robots game (docs/LANGUAGE.md, grammar/robot.pest)
" Files:       *.robot
" Maintained with editors/robot.tmLanguage.json: the same classes of words, and
" web/test/editors.test.mjs checks that both name the same keywords.

if exists('b:current_syntax')
  finish
endif
let s:cpo_save = &cpo
set cpo&vim

" Keywords are case-insensitive; `-` belongs to words (self-destruct, ahead-left, -1).
syntax case ignore
syntax iskeyword @,48-57,_,192-255,-

" Comments: `#` and `//` to the end of the line, anywhere.
syn keyword robotTodo contained TODO FIXME XXX NOTE
syn match robotComment "\%(#\|//\).*$" contains=robotTodo,@Spell

" name: hunter
syn match robotNameKey "^\s*name\ze\s*:" nextgroup=robotNameSep skipwhite
syn match robotNameSep contained ":" nextgroup=robotNameText skipwhite
syn match robotNameText contained "\%(\%(#\|//\)\@!.\)\+"

" Steps: a number, then `:`, `.`, `)` or nothing, then one instruction.
syn match robotStepNumber "^\s*\d\+" nextgroup=robotStepSep,robotStepBody skipwhite
syn region robotStepBody contained start="\S" end="$" oneline keepend contains=robotComment,@robotInstruction
" (after the body: of two items starting at one place, Vim takes the last defined)
syn match robotStepSep contained "[:.)]" nextgroup=robotStepBody skipwhite

" Tests: `test n:` then a condition.
syn match robotTestKey "^\s*test\ze\s*\d\+\s*:" nextgroup=robotTestNumber skipwhite
syn match robotTestNumber contained "\d\+" nextgroup=robotTestSep skipwhite
syn match robotTestSep contained ":" nextgroup=robotCondition skipwhite
syn region robotCondition contained start="\S" end="$" oneline keepend contains=robotComment,@robotCond

" ---------------------------------------------------------------- instructions
syn cluster robotInstruction contains=robotAction,robotControl,robotTi57,robotMove,robotQuestion,robotTi57Key,robotSense,robotNumber

" Actions end the turn.
syn match robotMove contained "\<[dr]\s*[+-]\s*\d\+"
syn keyword robotAction contained forward fwd backward back right left
syn keyword robotAction contained t fire shoot explode self-destruct
syn match robotAction contained "\*"

" Controls do not.
syn match robotQuestion contained "?\s*\d\+"
syn keyword robotControl contained test raz reset goto go to

" The TI-57 keywords (RULES A.12).
syn keyword robotTi57 contained inv lbl gto sbr rtn rst sto rcl sum prd exc dsz pause nop
syn match robotTi57Key contained "\<c\.t\>"
syn match robotTi57Key contained "\<r/s"
syn match robotTi57Key contained "\<x\s*\%(<>\|>=\|=\)\s*t\>"
" x = TERM: sense into x (x = t is the test above)
syn region robotSense contained matchgroup=robotSenseX start="\<x\s*=\%(\s*t\>\)\@!" end="$" oneline keepend contains=robotComment,@robotCond

" ---------------------------------------------------------------- conditions
syn cluster robotCond contains=robotLogic,robotFunction,robotSelf,robotBoolean,robotPlace,robotWho,robotTerrain,robotOwner,robotColour,robotMemory,robotOperator,robotNumber,robotParen

syn keyword robotLogic contained not and or
syn keyword robotFunction contained count
syn keyword robotSelf contained shots damage destroyed steps facing
syn keyword robotBoolean contained true false
syn keyword robotPlace contained ahead-right ahead-left behind-right behind-left ahead behind right left
syn keyword robotPlace contained anywhere here within at distance direction in
syn keyword robotWho contained enemy enemies friend friends ally allies any robot robots
syn keyword robotTerrain contained lake lakes lightning plain edge camp camps computer computers
syn keyword robotTerrain contained shape shapes square squares triangle triangles circle circles
syn keyword robotOwner contained own my home friendly
syn keyword robotColour contained green violet red blue yellow orange black
" The TI-57 memories: x, t, R0 ... R7.
syn match robotMemory contained "\<\%(r\d\|x\|t\)\>"
syn match robotOperator contained "[=!<>]=\|[=<>]"
syn match robotParen contained "[()]"
syn match robotNumber contained "\%(\k\)\@<![+-]\=\d\+\>"

" ---------------------------------------------------------------- colours
hi def link robotComment     Comment
hi def link robotTodo        Todo
hi def link robotNameKey     Keyword
hi def link robotNameSep     Delimiter
hi def link robotNameText    String
hi def link robotStepNumber  Function
hi def link robotStepSep     Delimiter
hi def link robotTestKey     Structure
hi def link robotTestNumber  Function
hi def link robotTestSep     Delimiter
hi def link robotMove        Statement
hi def link robotAction      Statement
hi def link robotQuestion    Conditional
hi def link robotControl     Conditional
hi def link robotTi57        PreProc
hi def link robotTi57Key     PreProc
hi def link robotSenseX      Identifier
hi def link robotLogic       Operator
hi def link robotOperator    Operator
hi def link robotFunction    Function
hi def link robotSelf        Identifier
hi def link robotMemory      Identifier
hi def link robotBoolean     Boolean
hi def link robotPlace       Keyword
hi def link robotWho         Type
hi def link robotTerrain     Type
hi def link robotOwner       Constant
hi def link robotColour      Constant
hi def link robotNumber      Number
hi def link robotParen       Delimiter

let b:current_syntax = 'robot'
let &cpo = s:cpo_save
unlet s:cpo_save
