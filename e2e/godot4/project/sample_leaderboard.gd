extends Node
## A game's own leaderboard node, as the samples call it.

var shown: Array = []


func show_scores(scores: Array) -> void:
	shown = scores
	get_parent().did.append("show_scores")
