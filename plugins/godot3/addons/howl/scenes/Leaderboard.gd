extends Control
# The best scores of one board, with a period switcher on boards that reset.

# Emitted when a page of scores loaded, with the call's result.
signal done(result)
# Emitted when any load completed, with or without an error.
signal answered(result)

# The board to show.
export var ldboard_name: String = "main"
# How many entries to show; 0 shows them all. (`max` cannot name a member in Godot 3.)
export var max_scores: int = 10
# 0 is the current period, -1 the one before, down to -1000.
export var period_offset: int = 0

const OLDEST_OFFSET := -1000

onready var title_label: Label = $Margin/Box/Title
onready var period_bar: Control = $Margin/Box/PeriodBar
onready var previous_button: Button = $Margin/Box/PeriodBar/PreviousButton
onready var period_label: Label = $Margin/Box/PeriodBar/PeriodLabel
onready var next_button: Button = $Margin/Box/PeriodBar/NextButton
onready var status_label: Label = $Margin/Box/Status
onready var rows: VBoxContainer = $Margin/Box/Scroll/Rows

# Counts loads, so an answer that a newer load overtook is dropped.
var _load_id := 0
var _loading := false


func _ready() -> void:
	previous_button.connect("pressed", self, "show_previous_period")
	next_button.connect("pressed", self, "show_next_period")
	load_scores()


# Loads the current `period_offset` of `ldboard_name`; the result also comes with `answered`.
func load_scores() -> void:
	_load_id += 1
	var my_id := _load_id
	_loading = true
	_set_status("Loading…")
	_clear_rows()
	previous_button.disabled = true
	next_button.disabled = true
	var result = yield(Howl.Scores.get_scores(max_scores, ldboard_name, period_offset), "completed")
	if my_id != _load_id:
		return
	_loading = false
	_show(result)
	if result.get("error") == null:
		emit_signal("done", result)
	emit_signal("answered", result)


func show_previous_period() -> void:
	if _loading or period_offset <= OLDEST_OFFSET:
		return
	period_offset -= 1
	load_scores()


func show_next_period() -> void:
	if _loading or period_offset >= 0:
		return
	period_offset += 1
	load_scores()


func _show(result: Dictionary) -> void:
	var error = result.get("error")
	if error != null:
		_set_status(_error_text(error))
		# A failed load can still be left for another period.
		previous_button.disabled = period_offset <= OLDEST_OFFSET
		next_button.disabled = period_offset >= 0
		return
	var period = result.get("period")
	period_bar.visible = period != null
	if period != null:
		period_label.text = "%s: %s" % [_period_name(period_offset), period_dates(period)]
	previous_button.disabled = period == null or period_offset <= OLDEST_OFFSET
	next_button.disabled = period == null or period_offset >= 0
	var scores = result.get("scores")
	if typeof(scores) != TYPE_ARRAY or scores.empty():
		_set_status("No scores yet.")
		return
	_set_status("")
	for entry in scores:
		_add_row(entry)


func _add_row(entry: Dictionary) -> void:
	var row := HBoxContainer.new()
	row.name = "Row"
	rows.add_child(row, true)
	_add_cell(row, "Position", str(int(entry.get("position", 0))), 160, Label.ALIGN_LEFT)
	_add_cell(row, "PlayerName", str(entry.get("player_name", "")), 0, Label.ALIGN_LEFT)
	_add_cell(row, "Score", format_score(entry.get("score", 0)), 320, Label.ALIGN_RIGHT)


func _add_cell(row: HBoxContainer, cell_name: String, text: String, width: float, align: int) -> void:
	var label := Label.new()
	label.name = cell_name
	label.text = text
	label.align = align
	label.clip_text = true
	label.rect_min_size = Vector2(width, 48)
	label.valign = Label.VALIGN_CENTER
	if width == 0:
		label.size_flags_horizontal = SIZE_EXPAND_FILL
	row.add_child(label)


func _clear_rows() -> void:
	for row in rows.get_children():
		rows.remove_child(row)
		row.queue_free()


func _set_status(text: String) -> void:
	status_label.text = text
	status_label.visible = text != ""


static func _error_text(error) -> String:
	if typeof(error) == TYPE_DICTIONARY and str(error.get("message", "")) != "":
		return str(error.message)
	if typeof(error) == TYPE_DICTIONARY:
		return str(error.get("code", "Error"))
	return str(error)


static func _period_name(offset: int) -> String:
	if offset == 0:
		return "Current period"
	if offset == -1:
		return "Previous period"
	return "%d periods ago" % -offset


# A whole number without ".0"; JSON numbers arrive as floats.
static func format_score(score) -> String:
	if typeof(score) == TYPE_REAL and score == floor(score) and abs(score) < 1e15:
		return str(int(score))
	return str(score)


# The period's first and last day on this device's clock, or its hours when it is shorter than a day.
static func period_dates(period: Dictionary) -> String:
	var start := local_datetime(str(period.get("start", "")), 0)
	var last := local_datetime(str(period.get("end", "")), -1)
	if start.empty() or last.empty():
		return ""
	var first_day := "%04d-%02d-%02d" % [start.year, start.month, start.day]
	var last_day := "%04d-%02d-%02d" % [last.year, last.month, last.day]
	if first_day != last_day:
		return "%s – %s" % [first_day, last_day]
	var end := local_datetime(str(period.get("end", "")), 0)
	return "%s %02d:%02d – %02d:%02d" % [first_day, start.hour, start.minute, end.hour, end.minute]


# An ISO instant ("2026-05-04T00:00:00.000Z") plus `shift` seconds, in the device's time zone.
static func local_datetime(iso: String, shift: int) -> Dictionary:
	if iso.length() < 19:
		return {}
	var date := iso.substr(0, 10).split("-")
	var time := iso.substr(11, 8).split(":")
	if date.size() != 3 or time.size() != 3:
		return {}
	var unix := OS.get_unix_time_from_datetime({
		"year": int(date[0]), "month": int(date[1]), "day": int(date[2]),
		"hour": int(time[0]), "minute": int(time[1]), "second": int(time[2]),
	})
	var bias := int(OS.get_time_zone_info().get("bias", 0))
	return OS.get_datetime_from_unix_time(unix + shift + bias * 60)
