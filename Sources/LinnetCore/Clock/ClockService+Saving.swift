extension ClockService {
    /// Returns once the alarms as they are now are on disk (or their write failed): AddAlarm
    /// answers after it, so an accepted alarm survives a crash, while the loop never waits.
    public func alarmsSettled() async {
        await store.backgroundSavesSettled()
    }

    /// Waits for the alarms' last save (linnet is exiting); false if it failed.
    public func finishSavingAlarms() -> Bool {
        store.finishBackgroundSaves()
    }
}
