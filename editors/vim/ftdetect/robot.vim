" Programs of the robots game (docs/LANGUAGE.md). Vim and Neovim already map *.robot to the
" filetype robot (for Robot Framework); this makes sure of it where they do not.
autocmd BufNewFile,BufRead *.robot set filetype=robot
