"""What `dekal.bots.advise` is built on (internal), in the order an advice flows: `question`
(whose decision, at what cost, which worlds), `enumeration` (every world, exactly, when
there are few), `playout` (each action played out in each world of a batch), `figures`
(means, intervals, P(win)); `reachable` says which views a game can reach. Nothing is
imported here."""
