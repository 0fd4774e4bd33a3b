# bench_bots: ms per ismcts move, iterations/s, GameState copy cost and size (docs/bots.md). Built, never run
# by CTest. Included from tests/CMakeLists.txt.
add_executable(bench_bots ${CMAKE_CURRENT_LIST_DIR}/bench_bots.cpp ${CMAKE_CURRENT_LIST_DIR}/allocation_counter.cpp)
target_link_libraries(bench_bots PRIVATE hr_scripting hr_engine fmt::fmt)
target_compile_definitions(bench_bots PRIVATE HOUSERULES_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

# bench_board: GameState size and copy cost with a Lost-Valley-sized lattice board, reachable/path/placements
# rates in C++ and through Lua (docs/boards.md). Built, never run by CTest.
add_executable(bench_board ${CMAKE_CURRENT_LIST_DIR}/bench_board.cpp ${CMAKE_CURRENT_LIST_DIR}/allocation_counter.cpp)
target_link_libraries(bench_board PRIVATE hr_scripting hr_engine fmt::fmt)
target_compile_definitions(bench_board PRIVATE HOUSERULES_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
