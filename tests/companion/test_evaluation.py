from companion.evaluation import Evaluation, card_kind, confusion_image, read_labels


def test_plains_fold_together_but_the_coloured_paulownia_does_not():
    assert card_kind("pine-plain-2") == card_kind("pine-plain-1") == "pine-plain"
    assert card_kind("paulownia-plain-3") == "paulownia-plain-3"


def test_counts_exact_images_and_confusions():
    e = Evaluation()
    e.add(["pine-crane", "pine-plain-1"], ["pine-plain-2", "pine-crane"], 10.0)
    e.add(["willow-ribbon", "maple-deer"], ["pine-ribbon", "maple-deer", "unknown"], 20.0)
    e.add(["plum-warbler"], [], 30.0)
    s = e.summary()
    assert s["images"] == 3 and abs(s["exact_images"] - 1 / 3) < 1e-9
    assert e.confusion[("willow-ribbon", "pine-ribbon")] == 1
    assert e.confusion[("plum-warbler", "(none)")] == 1
    assert s["per_card"]["willow-ribbon"]["recall"] == 0.0
    assert s["per_card"]["pine-ribbon"]["precision"] == 0.0
    assert s["precision"] == 3 / 4 and s["recall"] == 3 / 5
    image = confusion_image(e)
    assert image.ndim == 3 and image.shape[0] == image.shape[1]


def test_read_labels_errors_name_the_line(tmp_path):
    (tmp_path / "labels.csv").write_text("image,card\na.jpg,pine-crane\nbroken\n")
    try:
        read_labels(tmp_path)
    except ValueError as exc:
        assert "line 3" in str(exc)
    else:
        raise AssertionError("a broken row must be an error")


def test_naming_a_partly_visible_card_rightly_is_no_error_but_naming_it_wrongly_is() -> None:
    from companion.evaluation import Evaluation

    right = Evaluation()
    right.add(["pine-crane"], ["pine-crane", "maple-deer"], 1.0, optional=["maple-deer"])
    assert right.exact == 1 and sum(right.false_positive.values()) == 0
    wrong = Evaluation()
    wrong.add(["pine-crane"], ["pine-crane", "maple-ribbon"], 1.0, optional=["maple-deer"])
    assert wrong.exact == 0 and wrong.false_positive["maple-ribbon"] == 1
