extends Control
## The best scores of a leaderboard: position, player name and score. On a board that resets, a
## period switcher (this period, the previous one…) shows each period with its dates.

## Emitted with the result of get_scores each time the scene has loaded (or failed to load) a page.
signal loaded(result: Dictionary)
## Emitted with the result of get_scores each time a page loaded without an error.
signal done(result: Dictionary)

## The board to show.
@export var ldboard_name := "main"
## How many entries to show (0 for all).
@export var max := 10
## The period shown: 0 is the current one, -1 the previous one, and so on (down to -1000).
@export_range(-1000, 0) var period_offset := 0

## True while a page is loading.
var loading := false
## The last result shown, as get_scores gave it.
var result: Dictionary = {}

# Each load gets a number, so a slow answer never replaces a newer one.
var _load_id := 0

@onready var title: Label = %Title
@onready var periods: Control = %Periods
@onready var previous: Button = %Previous
@onready var next: Button = %Next
@onready var refresh_button: Button = %Refresh
@onready var period_name: Label = %PeriodName
@onready var period_dates: Label = %PeriodDates
@onready var entries: VBoxContainer = %Entries
@onready var loading_label: Label = %Loading
@onready var empty_label: Label = %Empty
@onready var error_label: Label = %Error


func _ready() -> void:
	previous.pressed.connect(func() -> void: show_period(period_offset - 1))
	next.pressed.connect(func() -> void: show_period(period_offset + 1))
	refresh_button.pressed.connect(refresh)
	periods.visible = false
	refresh()


## Shows another period (0 current, -1 previous…) and loads it.
func show_period(offset: int) -> void:
	period_offset = clampi(offset, -1000, 0)
	refresh()


## Loads the board again, for example after a score was saved.
func refresh() -> void:
	_load_id += 1
	var load_id := _load_id
	title.text = ldboard_name.capitalize()
	loading = true
	loading_label.visible = true
	empty_label.visible = false
	error_label.visible = false
	_enable_buttons(false)
	var howl := get_node_or_null(^"/root/Howl")
	var answer: Variant
	if howl == null:
		answer = {"error": {"code": "NotConfigured", "message": "The Howl plugin is not enabled (Project Settings → Plugins)."}}
	else:
		answer = await howl.Scores.get_scores(max, ldboard_name, period_offset)
	if load_id != _load_id or not is_inside_tree():
		return
	if not answer is Dictionary:
		answer = {"error": {"code": "InvalidResponse", "message": "The Howl plugin gave no answer."}}
	result = answer
	loading = false
	loading_label.visible = false
	_show(answer)
	if answer.get("error") == null:
		done.emit(answer)
	loaded.emit(answer)


func _show(answer: Dictionary) -> void:
	for child in entries.get_children():
		entries.remove_child(child)
		child.queue_free()
	var error: Variant = answer.get("error")
	if error != null:
		error_label.text = str(error.get("message", error.get("code", ""))) if error is Dictionary else str(error)
		error_label.visible = true
		_enable_buttons(true)
		return
	var period: Variant = answer.get("period")
	periods.visible = period is Dictionary
	if period is Dictionary:
		period_name.text = period_title(period_offset)
		period_dates.text = period_span(period)
	var scores: Variant = answer.get("scores")
	if not scores is Array or scores.is_empty():
		empty_label.text = "No scores in this period yet." if period is Dictionary else "No scores yet."
		empty_label.visible = true
	else:
		for entry in scores:
			if entry is Dictionary:
				entries.add_child(_row(entry))
	_enable_buttons(true)


func _enable_buttons(enabled: bool) -> void:
	refresh_button.disabled = not enabled
	previous.disabled = not enabled or period_offset <= -1000
	next.disabled = not enabled or period_offset >= 0


func _row(entry: Dictionary) -> HBoxContainer:
	var row := HBoxContainer.new()
	row.name = "Row%d" % (entries.get_child_count() + 1)
	row.add_child(_cell("Position", format_score(entry.get("position", "")), 120, HORIZONTAL_ALIGNMENT_LEFT))
	var player := _cell("PlayerName", str(entry.get("player_name", "")), 0, HORIZONTAL_ALIGNMENT_LEFT)
	player.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	player.text_overrun_behavior = TextServer.OVERRUN_TRIM_ELLIPSIS
	row.add_child(player)
	row.add_child(_cell("Score", format_score(entry.get("score")), 260, HORIZONTAL_ALIGNMENT_RIGHT))
	return row


func _cell(cell_name: String, text: String, width: float, align: HorizontalAlignment) -> Label:
	var label := Label.new()
	label.name = cell_name
	label.text = text
	label.custom_minimum_size.x = width
	label.horizontal_alignment = align
	return label


## A number as players read it (JSON numbers arrive as floats): whole numbers without ".0".
static func format_score(score: Variant) -> String:
	if (score is float or score is int) and is_equal_approx(score, roundf(score)) and absf(score) <= 1e15:
		return str(int(score))
	return str(score)


## "This period", "Previous period", "3 periods ago".
static func period_title(offset: int) -> String:
	if offset == 0:
		return "This period"
	if offset == -1:
		return "Previous period"
	return "%d periods ago" % -offset


## A period's dates in the player's time zone: "2025-05-12 – 2025-05-18" (the last day included),
## or with the hours for periods shorter than a day: "2025-05-12 14:00 – 15:00".
static func period_span(period: Dictionary) -> String:
	var start := _local_unix(str(period.get("start", "")))
	var end := _local_unix(str(period.get("end", "")))
	if start < 0 or end <= start:
		return ""
	if end - start < 86400:
		return "%s – %s" % [Time.get_datetime_string_from_unix_time(start, true).left(16), Time.get_time_string_from_unix_time(end).left(5)]
	return "%s – %s" % [Time.get_date_string_from_unix_time(start), Time.get_date_string_from_unix_time(end - 1)]


# An ISO instant ("2025-05-12T00:00:00.000Z") as seconds in the device's time zone, or -1.
static func _local_unix(iso: String) -> int:
	if iso.length() < 19:
		return -1
	var utc := Time.get_unix_time_from_datetime_string(iso.left(19))
	return utc + int(Time.get_time_zone_from_system().get("bias", 0)) * 60
