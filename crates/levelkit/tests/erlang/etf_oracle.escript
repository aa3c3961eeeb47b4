#!/usr/bin/env escript
%%! -noshell
%% Oracle for crates/levelkit/tests/etf_erlang.rs: Erlang's own term_to_binary / binary_to_term.
%%
%%   escript etf_oracle.escript gen N Seed Out
%%       N random terms (seeded, so the same every run). For each, three length-prefixed
%%       (u32 BE) fields: term_to_binary(T, Opts), term_to_binary(T, [compressed | Opts]) and
%%       io_lib:format("~w", [T]) as UTF-8, where Opts varies the minor version (0: FLOAT_EXT,
%%       1: the default, 2: UTF-8 atoms).
%%   escript etf_oracle.escript read In Out
%%       In holds length-prefixed external terms; for each, writes the length-prefixed ~w text
%%       of binary_to_term, or "ERROR" when Erlang refuses it.
%%   escript etf_oracle.escript time File Iterations
%%       Prints the mean microseconds of binary_to_term over the file's bytes.

main(["gen", N, Seed, Out]) ->
    S = list_to_integer(Seed),
    rand:seed(exsss, {S, S * 7 + 1, S * 13 + 2}),
    Recs = [gen_one() || _ <- lists:seq(1, list_to_integer(N))],
    ok = file:write_file(Out, Recs);
main(["read", In, Out]) ->
    {ok, Bin} = file:read_file(In),
    ok = file:write_file(Out, [field(text(B)) || B <- split(Bin)]);
main(["time", File, Iter]) ->
    {ok, Bin} = file:read_file(File),
    N = list_to_integer(Iter),
    _ = binary_to_term(Bin),
    {Us, _} = timer:tc(fun() -> loop(Bin, N) end),
    io:format("~p~n", [Us / N]).

loop(_, 0) -> ok;
loop(Bin, N) -> _ = binary_to_term(Bin), loop(Bin, N - 1).

text(B) ->
    try binary_to_term(B) of
        T -> unicode:characters_to_binary(io_lib:format("~w", [T]))
    catch
        _:_ -> <<"ERROR">>
    end.

split(<<>>) -> [];
split(<<Len:32, B:Len/binary, Rest/binary>>) -> [B | split(Rest)].

field(B) -> [<<(byte_size(B)):32>>, B].

gen_one() ->
    T = term(3),
    Opts = case rand:uniform(4) of
               1 -> [{minor_version, 0}];
               2 -> [{minor_version, 2}];
               _ -> []
           end,
    [field(term_to_binary(T, Opts)),
     field(term_to_binary(T, [compressed | Opts])),
     field(unicode:characters_to_binary(io_lib:format("~w", [T])))].

pick(L) -> lists:nth(rand:uniform(length(L)), L).

term(0) -> leaf();
term(D) ->
    case rand:uniform(10) of
        1 -> list_to_tuple([term(D - 1) || _ <- lists:seq(1, rand:uniform(6) - 1)]);
        2 -> [term(D - 1) || _ <- lists:seq(1, rand:uniform(6) - 1)];
        3 -> improper(D);
        4 -> maps:from_list([{term(D - 1), term(D - 1)} || _ <- lists:seq(1, rand:uniform(5) - 1)]);
        5 -> big_container();
        _ -> leaf()
    end.

improper(D) ->
    Tail = case rand:uniform(3) of
               1 -> term(0);
               2 -> <<"x">>;
               3 -> 7
           end,
    lists:foldl(fun(E, Acc) -> [E | Acc] end, Tail, [term(D - 1) || _ <- lists:seq(1, rand:uniform(3))]).

%% Rarely: the containers at their tag boundaries.
big_container() ->
    case rand:uniform(40) of
        1 -> list_to_tuple(lists:duplicate(255, a));
        2 -> list_to_tuple(lists:seq(1, 256));
        3 -> lists:duplicate(65535, $a);
        4 -> lists:duplicate(65536, $b);
        5 -> lists:duplicate(70000, 0);
        _ -> leaf()
    end.

leaf() ->
    case rand:uniform(13) of
        1 -> rand:uniform(256) - 1;
        2 -> rand:uniform(1 bsl 32) - (1 bsl 31);
        3 -> pick([0, 255, 256, -1, 2147483647, 2147483648, -2147483648, -2147483649,
                   9223372036854775807, 9223372036854775808, -9223372036854775808,
                   -9223372036854775809, 18446744073709551615, 18446744073709551616]);
        4 -> big();
        5 -> float();
        6 -> float();
        7 -> atom();
        8 -> atom();
        9 -> [rand:uniform(256) - 1 || _ <- lists:seq(1, rand:uniform(8))];
        10 -> [rand:uniform(2000) || _ <- lists:seq(1, rand:uniform(4))];
        11 -> rand:bytes(rand:uniform(20) - 1);
        12 -> Bits = rand:uniform(7), B = rand:bytes(rand:uniform(5) - 1),
              X = rand:uniform(1 bsl Bits) - 1,
              <<B/binary, X:Bits>>;
        13 -> pick([[], {}, <<>>, #{}, "", true, false, ''])
    end.

big() ->
    Bits = case rand:uniform(10) of
               1 -> 2040 + rand:uniform(100);   % around the SMALL_BIG / LARGE_BIG boundary
               _ -> 64 + rand:uniform(300)
           end,
    V = rand:uniform(1 bsl Bits),
    case rand:uniform(2) of 1 -> V; 2 -> -V end.

float() ->
    case rand:uniform(4) of
        1 -> pick([0.0, -0.0, 1.0, -1.0, 0.1, 100.0, 1000.0, 1.0e15, 9007199254740991.0,
                   9007199254740992.0, 5.0e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                   0.0001, 0.00012, 123456.789]);
        2 -> (rand:uniform() - 0.5) * math:pow(10, rand:uniform(40) - 20);
        3 -> float(rand:uniform(100000) * pick([1, 10, 100, 1000, 10000, 100000]));
        4 -> random_bits_float()
    end.

random_bits_float() ->
    <<B:64>> = rand:bytes(8),
    case <<B:64>> of
        <<F:64/float>> -> F;
        _ -> random_bits_float()
    end.

atom() ->
    Alphabet = "abcxyzABZ019_@ .'\\\n\t" ++ [0, 1, 127, 128, 159, 160, 200, 215, 223, 247, 255,
                                          228, 233, 8364, 20320, 128512],
    Len = case rand:uniform(20) of
              1 -> 255;
              _ -> rand:uniform(8) - 1
          end,
    Chars = case rand:uniform(3) of
                1 -> [pick("abcdefghij") | [pick("abcdefghijABC_@0123456789") || _ <- lists:seq(2, max(Len, 1))]];
                2 -> [pick(lists:filter(fun(C) -> C =< 255 end, Alphabet)) || _ <- lists:seq(1, Len)];
                3 -> [pick(Alphabet) || _ <- lists:seq(1, Len)]
            end,
    case rand:uniform(25) of
        1 -> pick(['and', 'maybe', 'else', 'cond', 'true', 'ab@c', 'ß', 'Ä']);
        _ -> list_to_atom(Chars)
    end.
